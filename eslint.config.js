import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/*
 * The shop's "only one way" rules that a linter can check. no-restricted-syntax and
 * no-restricted-imports are replaced, not merged, by a later block that matches the same file, so
 * each block below lists every restriction that applies to its files.
 */

/** Busy states come from useIsPending, so every screen means the same by "busy". */
const navigationStateComparison = [
  {
    selector: "BinaryExpression > MemberExpression[property.name='state'][object.name='navigation']",
    message: "navigation.state を比較せず、useIsPending（~/lib/hooks/use-is-pending）を使ってください。",
  },
  {
    selector:
      "BinaryExpression > MemberExpression[property.name='state'][object.type='CallExpression'][object.callee.name='useNavigation']",
    message: "useNavigation().state を比較せず、useIsPending（~/lib/hooks/use-is-pending）を使ってください。",
  },
];

/**
 * A fetcher's busy state too (`useIsPending({ fetcher })`): `fetcher.state` (any name ending in
 * "fetcher", `props.fetcher` included) and any `.state` compared with "submitting", the word only a
 * navigation or a fetcher uses.
 */
const fetcherStateComparison = [
  {
    selector:
      "BinaryExpression > MemberExpression[property.name='state']:matches([object.name=/fetcher$/i], [object.property.name=/fetcher$/i])",
    message:
      "fetcher.state を比較せず、useIsPending({ fetcher })（~/lib/hooks/use-is-pending）を使ってください。",
  },
  {
    selector:
      "BinaryExpression > MemberExpression[property.name='state'][object.type='CallExpression'][object.callee.name='useFetcher']",
    message:
      "useFetcher().state を比較せず、useIsPending({ fetcher })（~/lib/hooks/use-is-pending）を使ってください。",
  },
  {
    selector:
      "BinaryExpression:has(> MemberExpression[property.name='state']):has(> Literal[value='submitting'])",
    message: '.state === "submitting" と書かず、useIsPending（~/lib/hooks/use-is-pending）を使ってください。',
  },
];

/** One 404 (body and status) for pages and resource routes: notFound()/notFoundResponse(). */
const handMade404 = [
  {
    selector:
      "NewExpression[callee.name='Response'] > ObjectExpression > Property[key.name='status'] > Literal[value=404]",
    message: "404 は ~/server/http/not-found.server の notFound() / notFoundResponse() で返してください。",
  },
];

/**
 * Labels come from the fields of app/components/forms.tsx (Field, SelectField, ..., FieldsetField for
 * a group, FieldLabel for a control none of them can draw), so every label looks and links alike:
 * a className that says field-label (a string, inside a ternary or a template) is refused elsewhere.
 */
const handWrittenFieldLabel = [
  {
    selector: "JSXAttribute[name.name='className'] Literal[value=/field-label/]",
    message:
      "field-label を手書きせず、~/components/forms の Field 系（FieldsetField、FieldLabel を含む）を使ってください。",
  },
  {
    selector: "JSXAttribute[name.name='className'] TemplateElement[value.raw=/field-label/]",
    message:
      "field-label を手書きせず、~/components/forms の Field 系（FieldsetField、FieldLabel を含む）を使ってください。",
  },
];

/** Rules read the time from the clock module, so tests can set it (setClock) and all agree. */
const wallClock = [
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: "サーバーのルールでは new Date() ではなく ~/server/core/clock.server の時計を使ってください。",
  },
  {
    selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
    message: "サーバーのルールでは Date.now() ではなく ~/server/core/clock.server の時計を使ってください。",
  },
];

/** Forms get the house defaults through useShopForm. */
const conformUseForm = {
  name: "@conform-to/react",
  importNames: ["useForm"],
  message: "conform の useForm ではなく useShopForm（~/lib/hooks/use-shop-form）を使ってください。",
};

/** Every form reads its post through parseForm, which reads number fields as the shop does. */
const conformParse = ["@conform-to/zod", "@conform-to/zod/v3"].map((name) => ({
  name,
  importNames: ["parseWithZod"],
  message:
    "フォームは parseForm（~/lib/schemas/parse-form）で読んでください（数字の読み方が店のものになります）。",
}));

/**
 * Amounts are written 12,345円 on every screen (formatYenShort, formatYen, formatSignedYen), as the
 * parents' pages do; ¥12,345 is the 領収書's own convention (its total ¥12,345-) and stays there.
 */
const yenSign = {
  name: "~/lib/rules/format",
  importNames: ["formatYenSign"],
  message:
    "金額は 12,345円 と書きます（formatYenShort・formatYen・formatSignedYen）。¥ 表記は領収書だけのものです。",
};
/** The 領収書's drawings (the sheet, and the PDF's modules), the only ones that write ¥12,345. */
const RECEIPT_DRAWINGS = [
  "app/routes/storefront/ReceiptSheet.tsx",
  "app/server/receipts/receipt-pdf*.server.ts",
];

/** app/lib runs in the browser and the server alike; arrows run downward, never up into the server. */
const serverFromLib = {
  group: ["~/server", "~/server/*", "**/server/*"],
  message: "app/lib から app/server を import しないでください（必要な型や定数は app/lib に置きます）。",
};

/** What every file of app/ asks of the toolkit (flat config replaces a rule's list, so each block names it). */
const appToolkit = [...navigationStateComparison, ...fetcherStateComparison, ...handMade404];

export default tseslint.config(
  {
    ignores: [
      "build/",
      "server-build/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      ".tmp/",
      "data/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/lib/hooks/use-is-pending.ts", "app/server/http/not-found.server.ts"],
    rules: {
      "no-restricted-syntax": ["error", ...appToolkit, ...handWrittenFieldLabel],
    },
  },
  {
    // The fields themselves draw the label.
    files: ["app/components/forms.tsx"],
    rules: {
      "no-restricted-syntax": ["error", ...appToolkit],
    },
  },
  {
    files: ["app/server/**/*.ts"],
    ignores: [
      // The clock itself.
      "app/server/core/clock.server.ts",
      "app/server/http/not-found.server.ts",
      // Machine time, not shop time: how old a cached page is, when S3 signs a link (S3 checks the
      // signature against its own real clock), when the store's listing was last swept. A test's
      // clock must not move them.
      "app/server/http/render-cache.server.ts",
      "app/server/files/s3-links.server.ts",
      "app/server/files/store.server.ts",
    ],
    rules: {
      "no-restricted-syntax": ["error", ...appToolkit, ...handWrittenFieldLabel, ...wallClock],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/lib/hooks/use-shop-form.ts", ...RECEIPT_DRAWINGS],
    rules: { "no-restricted-imports": ["error", { paths: [conformUseForm, yenSign, ...conformParse] }] },
  },
  {
    files: RECEIPT_DRAWINGS,
    rules: { "no-restricted-imports": ["error", { paths: [conformUseForm, ...conformParse] }] },
  },
  {
    files: ["app/lib/**/*.{ts,tsx}"],
    ignores: ["app/lib/hooks/use-shop-form.ts", "app/lib/schemas/parse-form.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [conformUseForm, ...conformParse], patterns: [serverFromLib] },
      ],
    },
  },
  {
    files: ["app/lib/hooks/use-shop-form.ts"],
    rules: { "no-restricted-imports": ["error", { paths: conformParse, patterns: [serverFromLib] }] },
  },
  {
    files: ["app/lib/schemas/parse-form.ts"],
    rules: { "no-restricted-imports": ["error", { paths: [conformUseForm], patterns: [serverFromLib] }] },
  },
);
