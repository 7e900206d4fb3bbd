"""The streaming Messages API client: lazy SDK import, retries, usage and cost."""
