// Runs pi 0.73.1's own auth storage (from PI_REF) on an auth.json: `write`, or `read`.
// usage: node pi_auth.mjs write <auth.json> <provider> <credential JSON>
//        node pi_auth.mjs read <auth.json> <provider>   -> {"credential": …, "apiKey": …}
const [, , command, path, provider, credential] = process.argv;
const root = process.env.PI_REF;
const { AuthStorage } = await import(`${root}/node_modules/@mariozechner/pi-coding-agent/dist/core/auth-storage.js`);
const storage = AuthStorage.create(path);
if (command === "write") {
  storage.set(provider, JSON.parse(credential));
  const errors = storage.drainErrors();
  if (errors.length) throw errors[0];
} else {
  const apiKey = await storage.getApiKey(provider, { includeFallback: false });
  console.log(JSON.stringify({ credential: storage.get(provider), apiKey: apiKey ?? null }));
}
