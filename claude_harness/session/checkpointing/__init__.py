"""What the session rewinds: file checkpoints, their blobs, the
all-or-nothing restore and the rewind itself.
"""
