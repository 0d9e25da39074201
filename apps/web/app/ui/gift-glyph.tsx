/** A gift (a parcel with a bow), drawn inline: no emoji font needed, it takes the text colour. */
export function GiftGlyph() {
  return (
    <svg
      viewBox="0 0 16 16"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      strokeLinejoin="round"
      style={{ verticalAlign: "-0.125em" }}
      aria-hidden="true"
      focusable="false"
    >
      <rect x="1.5" y="5" width="13" height="3" rx="0.5" />
      <path d="M2.5 8v6.5h11V8M8 5v9.5" />
      <path d="M8 5C6.5 2 3.5 2.5 4.5 4.3 5 5 8 5 8 5Zm0 0c1.5-3 4.5-2.5 3.5-.7C11 5 8 5 8 5Z" />
    </svg>
  );
}
