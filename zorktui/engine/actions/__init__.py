"""The valid-action finder: grammar templates, candidates, their play in batches and worker processes."""
