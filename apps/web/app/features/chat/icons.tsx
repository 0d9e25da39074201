import type { ReactNode } from "react";

/** Small inline icons of the chat (no icon font): decorative, the control or text around names them. */
function Icon({ children, size = 16 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      viewBox="0 0 16 16"
      width={size}
      height={size}
      fill="currentColor"
      aria-hidden="true"
      focusable="false"
      style={{ verticalAlign: "-0.125em" }}
    >
      {children}
    </svg>
  );
}

export const TrashIcon = () => (
  <Icon>
    <path d="M6 1h4a1 1 0 0 1 1 1v1h3v1.5H2V3h3V2a1 1 0 0 1 1-1Zm0 1v1h4V2H6ZM3.5 5.5h9l-.7 8.6a1 1 0 0 1-1 .9H5.2a1 1 0 0 1-1-.9l-.7-8.6Zm3 1.5v6h1V7h-1Zm2 0v6h1V7h-1Z" />
  </Icon>
);

export const ClockIcon = () => (
  <Icon size={12}>
    <path d="M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1Zm0 1.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11ZM7.25 4h1.5v3.7l2.6 1.5-.75 1.3-3.35-1.95V4Z" />
  </Icon>
);

export const CheckIcon = () => (
  <Icon size={14}>
    <path d="M13.3 3.8 6.2 11 2.7 7.5 1.6 8.6l4.6 4.6 8.2-8.3-1.1-1.1Z" />
  </Icon>
);

export const DoubleCheckIcon = () => (
  <Icon size={14}>
    <path d="M11.3 3.8 4.6 10.6 1.9 7.9.8 9l3.8 3.8 7.8-7.9-1.1-1.1Zm3.1 0-6.8 6.8-.6-.6-1.1 1.1 1.7 1.7 7.9-7.9-1.1-1.1Z" />
  </Icon>
);

export const BackIcon = () => (
  <Icon size={20}>
    <path d="M10.6 2.3 11.7 3.4 7.1 8l4.6 4.6-1.1 1.1L4.9 8l5.7-5.7Z" />
  </Icon>
);

export const ImageIcon = () => (
  <Icon size={18}>
    <path d="M2 3h12a1 1 0 0 1 1 1v8a1 1 0 0 1-1 1H2a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1Zm.5 1.5v6.2l3-3 2.3 2.3 3.2-3.5 2.5 2.7V4.5h-11ZM5 5.2a1.3 1.3 0 1 1 0 2.6 1.3 1.3 0 0 1 0-2.6Z" />
  </Icon>
);

export const SendIcon = () => (
  <Icon size={18}>
    <path d="M1.5 1.8 15 8 1.5 14.2l.9-5.2L9 8l-6.6-1 -.9-5.2Z" />
  </Icon>
);
