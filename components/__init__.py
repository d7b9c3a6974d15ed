"""Streamlit/Plotly views over meteor_core results (issue 3)."""
