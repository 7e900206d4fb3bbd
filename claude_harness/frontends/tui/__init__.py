"""The interactive Textual front end.

Nothing in this package imports the session core, the tools or the HTTP client at module
level: the first frame must paint before those heavy imports (the app builds the session in a
worker after mount).
"""
