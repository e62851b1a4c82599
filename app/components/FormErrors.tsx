/** The server's or the schema's errors for the whole form, above its fields (conform's form errorId). */
export function FormErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p
      id={id}
      role="alert"
      className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 font-medium text-red-800"
    >
      {errors.join(" ")}
    </p>
  );
}
