# fixture: the real script exports ATB_HOME_PATH and ATB_* tunables
