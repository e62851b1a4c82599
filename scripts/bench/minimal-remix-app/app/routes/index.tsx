import { useLoaderData } from "@remix-run/react";

export function loader() {
  return {
    items: [1, 2, 3, 4, 5].map((id) => ({ id, name: `大会 ${id}` })),
  };
}

export default function Index() {
  const { items } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>最小の Remix アプリ</h1>
      <ul>
        {items.map((item) => (
          <li key={item.id}>{item.name}</li>
        ))}
      </ul>
    </main>
  );
}
