"""Readers and writers of the text formats, one module each; ``load`` picks one."""
