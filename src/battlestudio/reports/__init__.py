"""Game reports: ``html`` assembles a self-contained report page from the analysis figures,
chart pictures and map snapshots it is given (pure text, no Qt); ``ui.report`` gathers those
pictures (matplotlib charts, offscreen map pages) and writes the HTML or PDF file."""
