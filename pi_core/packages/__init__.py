"""pi packages (npm, git, local folders): their skills, prompt templates and themes load; their
TypeScript extensions fail closed."""
