"""The browser pages of `treasure-envs serve` and `replay` (treasure_apps.web.server)."""
