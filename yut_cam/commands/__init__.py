"""Sub-commands of `yut-cam`, one module per area; each defines ``register(subparsers)``.

A handler is set with ``parser.set_defaults(handler=fn)`` where ``fn(args) -> int``.
Errors the user can fix print one clear line to stderr and return 2.
"""
