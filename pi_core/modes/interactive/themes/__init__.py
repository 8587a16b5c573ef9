"""Themes in pi's JSON format: built-in dark and light, custom files, detection and hot reload."""
