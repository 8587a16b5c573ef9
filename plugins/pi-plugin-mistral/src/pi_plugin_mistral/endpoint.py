"""Mistral's API endpoint (the provider's default base URL)."""

BASE_URL = "https://api.mistral.ai"
