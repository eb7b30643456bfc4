"""Ratings: pure maths (types, elo, model, evaluate) plus the Django side (models, views, tasks)."""
