"""What several front ends share: previews, event and terminal text, the
prompt's helpers (history, pastes, @ files), clipboard images, signal
handling.

Empty on purpose: nothing here is imported eagerly.
"""
