// The yardstick for `npm run bench`: the smallest Worker there is, served by the same wrangler.
export default {
  fetch() {
    return new Response("Hello, world", { headers: { "Content-Type": "text/plain" } });
  },
};
