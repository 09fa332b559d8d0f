"""Serving refapp: the waitress front, its worker processes and the WSGI layers before Flask."""
