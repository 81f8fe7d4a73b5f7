"""LightRAG gateways: in-process (embedded) and, for production, a LightRAG Server."""
