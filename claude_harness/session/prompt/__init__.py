"""What a turn sends besides the conversation: @ mentions, custom commands,
system reminders, hook context, rules and listings.
"""
