"""Text helpers every layer may use (a leaf): the bounded diff and terminal-safe text.
"""
