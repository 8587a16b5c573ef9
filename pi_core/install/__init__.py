"""`pi install`, `pi remove`, `pi list`, `pi update`: plugin distributions installed with pip (or
uv) into the environment pi runs in, and recorded in the `plugins` list of `settings.json`.

Modules: `spec` (what a SPEC names), `runner` (which installer, and running it), `records` (the
settings list), `environment` (what is installed), `operations` (the four commands), `commands`
(their click wrappers). Nothing here is imported by `pi --version`.
"""
