"""API routes for exporting and importing sessions."""
