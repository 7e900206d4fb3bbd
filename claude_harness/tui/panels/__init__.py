"""The app's settings panels (/config, /permissions, /hooks): shown in the dock in place of the
prompt, each drawing what the session listed and sending changes back as ops. Imported when a
panel is first asked for, never on the way to the first paint."""
