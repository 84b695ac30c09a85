"""Adapters from the runtime to other libraries' interfaces, for any registered game
(docs/architecture.md, Layers): the Gymnasium single-agent env (`single_agent`)."""
