"""Shared pieces of the benchmark harness: process measurement, pi, fake-server scenarios, table."""
