"""Plugin discovery, loading, registration, dispatch and the runtime context."""
