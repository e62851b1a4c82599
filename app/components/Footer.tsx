import { ChromeLink, useChromeLinkClicks } from "./ChromeLinks";
import { SHOP_NAME } from "~/lib/rules/shop";

const LINKS = [
  ["/about", "当サイトについて"],
  ["/legal-notice", "特定商取引法に基づく表記"],
  ["/privacy", "プライバシーポリシー"],
  ["/terms", "利用規約"],
  ["/order-lookup", "注文状況の確認"],
  ["/contact", "お問い合わせ"],
] as const;

export function Footer() {
  const onClick = useChromeLinkClicks();
  return (
    // The links' clicks bubble here (see ChromeLinks): not an interactive element of its own.
    <footer onClick={onClick} className="mt-16 border-t border-zinc-200 bg-white">
      <div className="mx-auto max-w-6xl px-4 py-8">
        <nav aria-label="フッター">
          <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
            {LINKS.map(([to, label]) => (
              <li key={to}>
                <ChromeLink to={to} className="text-zinc-600 hover:text-zinc-900 hover:underline">
                  {label}
                </ChromeLink>
              </li>
            ))}
          </ul>
        </nav>
        <p className="mt-6 text-xs text-zinc-500">© 2025 {SHOP_NAME}</p>
      </div>
    </footer>
  );
}
