"""How people reach the agent: print (text / json), rpc, and the Python RPC client."""
