import {
  getCollectionProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type FieldMetadata,
} from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { FieldError, FieldLabel } from "./field-label";

// The label and the error alone, without conform's field helpers: the order form's page draws them
// over its own selects and loads no more.
export { FieldError, FieldLabel };

type InputType =
  "text" | "email" | "password" | "number" | "tel" | "url" | "date" | "datetime-local" | "search";

/** What every field variant takes: the label, conform's metadata, an optional hint, FieldError's `announce`. */
type FieldBase<Schema> = {
  label: ReactNode;
  meta: FieldMetadata<Schema>;
  hint?: ReactNode;
  announce?: boolean;
};

/** The hint's id, which the control's aria-describedby names beside conform's errorId. */
function hintIdOf<Schema>(meta: FieldMetadata<Schema>, hint: ReactNode) {
  return hint ? `${meta.id}-hint` : undefined;
}

function FieldHint({ id, hint }: { id?: string; hint: ReactNode }) {
  if (!hint) return null;
  return (
    <p id={id} className="mt-1 text-xs text-zinc-500">
      {hint}
    </p>
  );
}

/** The frame every labelled control shares: the label above, the hint and the error under it. */
function FieldFrame<Schema>({
  label,
  meta,
  hint,
  hintId,
  announce,
  children,
}: Required<Pick<FieldBase<Schema>, "label" | "meta" | "announce">> & {
  hint?: ReactNode;
  hintId?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <FieldLabel htmlFor={meta.id}>{label}</FieldLabel>
      {children}
      <FieldHint id={hintId} hint={hint} />
      <FieldError id={meta.errorId} errors={meta.errors} announce={announce} />
    </div>
  );
}

/**
 * A labelled input with its hint and error, over conform's metadata: the label names the input,
 * the hint and the error are announced with it, and the server's reply refills the value.
 * `inputProps` carries what differs per field (autoComplete, inputMode, placeholder); `announce`
 * is FieldError's. Generic over the field's value type as getInputProps is: a preprocessed zod field reads as unknown.
 */
export function Field<Schema>({
  label,
  meta,
  type,
  hint,
  inputProps,
  beside,
  announce = false,
}: FieldBase<Schema> & {
  type: InputType;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
  /** What stands beside the input (its button, in a one-field form); the hint and error run under both. */
  beside?: ReactNode;
}) {
  const hintId = hintIdOf(meta, hint);
  const input = (
    <input
      {...getInputProps(meta, { type, ariaDescribedBy: hintId })}
      className="field-input"
      {...inputProps}
    />
  );
  return (
    <FieldFrame label={label} meta={meta} hint={hint} hintId={hintId} announce={announce}>
      {beside ? (
        <div className="flex flex-wrap items-start gap-3">
          {input}
          {beside}
        </div>
      ) : (
        input
      )}
    </FieldFrame>
  );
}

/**
 * One choice of a select or a radio group: the posted value and what the admin or customer reads.
 * A radio may say more under its name (`description`), read after the name, not as part of it.
 */
export type FieldOption = { value: string; label: ReactNode; description?: ReactNode };

/**
 * Field for a `<select>`: the options in order (an "all"/"unchanged" choice is an option with
 * value ""). `selectProps` is spread last, so a screen may replace the class or add onChange.
 */
export function SelectField<Schema>({
  label,
  meta,
  options,
  hint,
  selectProps,
  announce = false,
}: FieldBase<Schema> & {
  options: readonly FieldOption[];
  selectProps?: SelectHTMLAttributes<HTMLSelectElement>;
}) {
  const hintId = hintIdOf(meta, hint);
  return (
    <FieldFrame label={label} meta={meta} hint={hint} hintId={hintId} announce={announce}>
      <select {...getSelectProps(meta, { ariaDescribedBy: hintId })} className="field-input" {...selectProps}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/**
 * Field for a `<textarea>`, with the same label, hint and error as Field; `textareaProps` carries
 * rows, placeholder and the like.
 */
export function TextareaField<Schema>({
  label,
  meta,
  hint,
  textareaProps,
  announce = false,
}: FieldBase<Schema> & { textareaProps?: TextareaHTMLAttributes<HTMLTextAreaElement> }) {
  const hintId = hintIdOf(meta, hint);
  return (
    <FieldFrame label={label} meta={meta} hint={hint} hintId={hintId} announce={announce}>
      <textarea
        {...getTextareaProps(meta, { ariaDescribedBy: hintId })}
        className="field-input"
        {...textareaProps}
      />
    </FieldFrame>
  );
}

/**
 * Field for a file picker. `inputProps` carries accept and multiple. The chosen file is never
 * refilled after a refused post (browsers do not allow it), so the error says to choose again.
 */
export function FileField<Schema>({
  label,
  meta,
  hint,
  inputProps,
  announce = false,
}: FieldBase<Schema> & { inputProps?: InputHTMLAttributes<HTMLInputElement> }) {
  const hintId = hintIdOf(meta, hint);
  return (
    <FieldFrame label={label} meta={meta} hint={hint} hintId={hintId} announce={announce}>
      <input
        {...getInputProps(meta, { type: "file", ariaDescribedBy: hintId })}
        className="field-input"
        {...inputProps}
      />
    </FieldFrame>
  );
}

/**
 * A checkbox with its label to the right (the label is the sentence the box agrees to, so it is
 * read after the box, and a tap on it ticks the box). `inputProps` may add onChange or replace
 * the box's class; `className` is the row's.
 */
export function CheckboxField<Schema>({
  label,
  meta,
  hint,
  inputProps,
  className = "flex items-start gap-3",
  labelClassName = "text-sm leading-relaxed text-zinc-800",
  announce = false,
}: FieldBase<Schema> & {
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
  className?: string;
  labelClassName?: string;
}) {
  const hintId = hintIdOf(meta, hint);
  return (
    <div>
      <div className={className}>
        <input
          {...getInputProps(meta, { type: "checkbox", ariaDescribedBy: hintId })}
          className="mt-0.5 h-5 w-5 shrink-0 accent-brand-600"
          {...inputProps}
        />
        <label htmlFor={meta.id} className={labelClassName}>
          {label}
        </label>
      </div>
      <FieldHint id={hintId} hint={hint} />
      <FieldError id={meta.errorId} errors={meta.errors} announce={announce} />
    </div>
  );
}

/**
 * A group of controls under one label: a fieldset whose legend names it (a screen reader reads the
 * legend on entering the group and before each control), the hint under the legend, the controls
 * (the caller's `children`, usually conform's getCollectionProps checkboxes), and the error under
 * them. The fieldset's aria-describedby names the hint and, while there is one, the error, so both
 * are read with the group's name; conform's collection props link the error to each control too.
 * `className` is the fieldset's.
 */
export function FieldsetField<Schema>({
  label,
  meta,
  hint,
  className,
  announce = false,
  children,
}: FieldBase<Schema> & { className?: string; children: ReactNode }) {
  const hintId = hintIdOf(meta, hint);
  const errorId = meta.errors?.length ? meta.errorId : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ");
  return (
    <fieldset aria-describedby={describedBy || undefined} className={className}>
      <legend className="field-label">{label}</legend>
      {hint ? (
        <p id={hintId} className="mb-2 text-xs text-zinc-500">
          {hint}
        </p>
      ) : null}
      {children}
      <FieldError id={meta.errorId} errors={meta.errors} announce={announce} />
    </fieldset>
  );
}

/** A radio choice drawn as a bordered tile that shows when it is picked. */
const RADIO_TILE =
  "rounded-lg border border-zinc-300 px-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50";

/**
 * A radio group as a fieldset whose legend names it (a screen reader reads the legend before each
 * choice), each choice a bordered tile that shows when it is picked; each radio carries conform's
 * aria-invalid/aria-describedby (the error and the hint). `inputProps` is spread on
 * every radio (onChange reads `event.currentTarget.value`); `optionsClassName` lays the choices
 * out and `optionClassName` draws a choice without a description (a plain list for a short admin choice).
 */
export function RadioGroupField<Schema>({
  label,
  meta,
  options,
  hint,
  inputProps,
  optionsClassName = "grid grid-cols-2 gap-3",
  optionClassName = `flex min-h-11 cursor-pointer items-center gap-2 ${RADIO_TILE}`,
  announce = false,
}: FieldBase<Schema> & {
  options: readonly FieldOption[];
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
  optionsClassName?: string;
  optionClassName?: string;
}) {
  const hintId = hintIdOf(meta, hint);
  const byValue = new Map(options.map((option) => [option.value, option]));
  const radios = getCollectionProps(meta, {
    type: "radio",
    options: options.map((option) => option.value),
    ariaDescribedBy: hintId,
  });
  return (
    <fieldset>
      <legend className="field-label">{label}</legend>
      <div className={optionsClassName}>
        {radios.map(({ key, ...radio }) => {
          const option = byValue.get(radio.value);
          const descriptionId = option?.description ? `${radio.id}-description` : undefined;
          const describedBy = [radio["aria-describedby"], descriptionId].filter(Boolean).join(" ");
          const input = (
            <input
              {...radio}
              aria-describedby={describedBy || undefined}
              className="h-4 w-4 shrink-0 accent-brand-600"
              {...inputProps}
            />
          );
          if (!descriptionId)
            return (
              <label key={key} className={optionClassName}>
                {input}
                <span>{option?.label}</span>
              </label>
            );
          // The description stays outside the label, so the choice's name is its label alone.
          return (
            <div key={key} className={`${RADIO_TILE} pb-2`}>
              <label className="flex min-h-11 cursor-pointer items-center gap-2 font-semibold">
                {input}
                <span>{option?.label}</span>
              </label>
              <p id={descriptionId} className="text-xs text-zinc-600">
                {option?.description}
              </p>
            </div>
          );
        })}
      </div>
      <FieldHint id={hintId} hint={hint} />
      <FieldError id={meta.errorId} errors={meta.errors} announce={announce} />
    </fieldset>
  );
}

/** A form's submit button, on the right, disabled and relabelled while the form is on its way. */
type SubmitRowProps = { busy: boolean; busyLabel: string; children: ReactNode };
export function SubmitRow({ busy, busyLabel, children }: SubmitRowProps) {
  return (
    <div className="flex justify-end">
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? busyLabel : children}
      </button>
    </div>
  );
}
