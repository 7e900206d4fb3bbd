"""The permission system: modes, rules from every settings source, the resolution chain."""
