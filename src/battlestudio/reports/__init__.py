"""Game reports: ``charts`` draws a recorded game's charts as matplotlib figures (no Qt; the
Analysis dock shows the same ones), ``html`` assembles a self-contained report page from the
analysis figures, chart pictures and map snapshots it is given (pure text, no Qt); ``ui.report``
gathers those pictures (charts, offscreen map pages) and writes the HTML or PDF file."""
