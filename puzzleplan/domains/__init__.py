"""Reference rules of each puzzle family, pure Python, immutable states."""
