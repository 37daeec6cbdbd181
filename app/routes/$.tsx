// Any URL no other route claims: answer a real 404 rendered by the root error boundary.
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFoundRoute() {
  return null;
}
