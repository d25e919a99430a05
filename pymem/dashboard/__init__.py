"""The web dashboard (`pymem dashboard`): a read-only view of one tenant's memory for people, signed in with a
bearer token. pymem.dashboard.app builds the Starlette application; docs/dashboard.md describes the pages."""

from pymem.dashboard.app import DashboardOptions, create_app

__all__ = ["DashboardOptions", "create_app"]
