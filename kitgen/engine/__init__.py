"""The turn engine: campaign state, turn logs, replay."""
