"""Text helpers shared by the areas: sentence splitting with offsets (`sentences`) and the word lists it and the
extractive summarizer read (`data/`). Neither summarize nor analysis owns them, so that neither area imports the
other.
"""
