"""The runtime: what a game's code calls while it runs (values, the work budget, operators, builtins,
helpers and the effects that change the state); it imports nothing of the project but errors.

Every name generated code may call is in one table (table.py); the engine's VM calls the same
functions (effects.py is the one implementation of every state change).
"""
