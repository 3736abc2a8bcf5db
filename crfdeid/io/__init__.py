"""Readers and writers: plain text, BRAT standoff, JSON Lines. Every write is atomic."""

from .brat import format_ann, parse_ann, read_brat, write_brat
from .corpus import find_inputs, iter_documents, load_annotations, load_corpus
from .jsonl import read_jsonl, write_jsonl
from .text import atomic_write_text, read_text, read_text_document

__all__ = [
    "atomic_write_text", "find_inputs", "format_ann", "iter_documents", "load_annotations",
    "load_corpus", "parse_ann", "read_brat", "read_jsonl", "read_text", "read_text_document",
    "write_brat", "write_jsonl",
]
