// One labelled text field of the Authentication card, with its hint read as the field's description.
import { hint as hintClass, input, label as labelClass } from "@/components/ui";

export function AuthTextField({
  id,
  label,
  value,
  onChange,
  hint,
  mono = false,
  ...rest
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  mono?: boolean;
} & Pick<
  React.InputHTMLAttributes<HTMLInputElement>,
  "type" | "placeholder" | "maxLength" | "autoComplete" | "required" | "disabled"
>) {
  return (
    <div>
      <label className={labelClass} htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className={`${input} mt-1 ${mono ? "font-mono" : ""}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        spellCheck={false}
        {...rest}
      />
      {hint && (
        <p id={`${id}-hint`} className={hintClass}>
          {hint}
        </p>
      )}
    </div>
  );
}
