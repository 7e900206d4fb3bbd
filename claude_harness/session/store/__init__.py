"""What the session stores: the transcript, reading it back (resume, branches,
fork), its lock, titles and notices.
"""
