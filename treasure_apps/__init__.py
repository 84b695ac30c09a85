"""treasure-envs' applications, on top of everything else (docs/architecture.md, Layers):
evaluation, training (stable-baselines3), the benchmark and the `treasure-envs` command."""
