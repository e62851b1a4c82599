import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from "react";

const LENGTH = 6;

/**
 * Six one-digit boxes sharing the name `code`. Without JS they are six plain inputs
 * the server joins; with JS typing advances, Backspace goes back, and pasting
 * fills all six. `resetKey` changes after a failure or resend: boxes clear and the first is focused.
 */
export function CodeInput({
  resetKey,
  invalid,
  describedBy,
  onComplete,
}: {
  resetKey: string;
  invalid?: boolean;
  describedBy?: string;
  onComplete?: (complete: boolean) => void;
}) {
  const [digits, setDigits] = useState<string[]>(() => Array(LENGTH).fill(""));
  const refs = useRef<(HTMLInputElement | null)[]>([]);

  useEffect(() => {
    setDigits(Array(LENGTH).fill(""));
    refs.current[0]?.focus();
  }, [resetKey]);

  useEffect(() => {
    onComplete?.(digits.every((d) => /^\d$/.test(d)));
  }, [digits, onComplete]);

  function setAt(index: number, value: string) {
    setDigits((current) => current.map((d, i) => (i === index ? value : d)));
  }

  function fill(from: number, text: string) {
    const incoming = text
      .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
      .replace(/\D/g, "");
    if (!incoming) return;
    setDigits((current) =>
      current.map((d, i) => (i >= from && i - from < incoming.length ? (incoming[i - from] ?? d) : d)),
    );
    refs.current[Math.min(from + incoming.length, LENGTH - 1)]?.focus();
  }

  function onKeyDown(index: number, event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Backspace" && !digits[index] && index > 0) {
      event.preventDefault();
      setAt(index - 1, "");
      refs.current[index - 1]?.focus();
    } else if (event.key === "ArrowLeft" && index > 0) {
      refs.current[index - 1]?.focus();
    } else if (event.key === "ArrowRight" && index < LENGTH - 1) {
      refs.current[index + 1]?.focus();
    }
  }

  function onPaste(index: number, event: ClipboardEvent<HTMLInputElement>) {
    event.preventDefault();
    fill(index, event.clipboardData.getData("text"));
  }

  return (
    <div
      className="flex justify-center gap-2 sm:gap-3"
      role="group"
      aria-label="6桁の認証コード"
      aria-describedby={describedBy}
    >
      {digits.map((digit, index) => (
        <input
          key={index}
          ref={(element) => {
            refs.current[index] = element;
          }}
          name="code"
          value={digit}
          onChange={(event) => {
            const value = event.currentTarget.value;
            if (value.length > 1) return fill(index, value);
            const normalized = value.replace(/[０-９]/g, (d) =>
              String.fromCharCode(d.charCodeAt(0) - 0xfee0),
            );
            if (normalized !== "" && !/^\d$/.test(normalized)) return;
            setAt(index, normalized);
            if (normalized && index < LENGTH - 1) refs.current[index + 1]?.focus();
          }}
          onKeyDown={(event) => onKeyDown(index, event)}
          onPaste={(event) => onPaste(index, event)}
          onFocus={(event) => event.currentTarget.select()}
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={1}
          autoComplete={index === 0 ? "one-time-code" : "off"}
          aria-label={`${index + 1}桁目`}
          aria-invalid={invalid || undefined}
          className="h-14 w-11 rounded-lg border border-zinc-300 bg-white text-center text-2xl font-bold shadow-sm focus:border-brand-600 focus:ring-2 focus:ring-brand-100 focus:outline-none aria-[invalid=true]:border-red-600 sm:w-12"
        />
      ))}
    </div>
  );
}
