import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";

/**
 * A menu button for the top navigation (the language and account menus), with Bootstrap's dropdown
 * markup and the keyboard of react-bootstrap's `Dropdown`, without it: that module and Popper were
 * 12 KB gzip on every member's first screen (issue #29, decision 039), and inside the navbar the menu
 * is placed by CSS alone (`data-bs-popper="static"`, as react-bootstrap does there).
 *
 * The toggle says whether the menu is open (`aria-expanded`). ArrowDown or ArrowUp on the toggle opens
 * it on the first or last item; in the menu they move between the items (`.dropdown-item`), Home and
 * End to the first and last; Escape closes it and gives the focus back to the toggle. Choosing an item,
 * a click outside, or the focus leaving the menu (Tab) closes it. The items are rendered when the menu
 * first opens (what they load, such as the profile of the completeness meter, loads only then) and
 * kept after.
 */
export function Menu({
  id,
  toggle,
  toggleClassName,
  toggleLabel,
  children,
}: {
  id: string;
  /** The toggle's content. */
  toggle: ReactNode;
  /** The toggle's button classes, e.g. `btn-primary`. */
  toggleClassName: string;
  toggleLabel?: string;
  /** The items: links and buttons with the class `dropdown-item`, and `<MenuDivider />`. */
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState(false);
  const [focusOnOpen, setFocusOnOpen] = useState<"first" | "last" | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const outside = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    document.addEventListener("focusin", outside);
    return () => {
      document.removeEventListener("pointerdown", outside);
      document.removeEventListener("focusin", outside);
    };
  }, [open]);

  useEffect(() => {
    if (!open || !focusOnOpen) return;
    const list = itemsOf(root.current);
    (focusOnOpen === "first" ? list[0] : list.at(-1))?.focus();
    setFocusOnOpen(null);
  }, [open, focusOnOpen]);

  const show = (focus: "first" | "last" | null) => {
    setShown(true);
    setOpen(true);
    setFocusOnOpen(focus);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const onToggle = event.target === toggleRef.current;
    if (event.key === "Escape" && open) {
      event.preventDefault();
      setOpen(false);
      toggleRef.current?.focus();
      return;
    }
    if (event.key === "Tab") {
      if (open) setOpen(false);
      return;
    }
    if (!["ArrowDown", "ArrowUp", "Home", "End"].includes(event.key)) return;
    if (onToggle && !open) {
      if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
      event.preventDefault();
      show(event.key === "ArrowDown" ? "first" : "last");
      return;
    }
    if (!open) return;
    event.preventDefault();
    const list = itemsOf(root.current);
    if (list.length === 0) return;
    const at = list.indexOf(document.activeElement as HTMLElement);
    const next =
      event.key === "Home"
        ? 0
        : event.key === "End"
          ? list.length - 1
          : event.key === "ArrowDown"
            ? Math.min(at + 1, list.length - 1)
            : at <= 0
              ? 0
              : at - 1;
    list[next]?.focus();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the keys reach the toggle and the items, real buttons and links, through their wrapper.
    <div className={`dropdown${open ? " show" : ""}`} ref={root} onKeyDown={onKeyDown}>
      <button
        ref={toggleRef}
        type="button"
        id={id}
        aria-expanded={open}
        aria-label={toggleLabel}
        className={`dropdown-toggle btn ${toggleClassName}${open ? " show" : ""}`}
        onClick={() => (open ? setOpen(false) : show(null))}
      >
        {toggle}
      </button>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: a click on an item (a link or a button, keyboard-operable) closes the menu. */}
      <div
        data-bs-popper="static"
        className={`dropdown-menu dropdown-menu-end${open ? " show" : ""}`}
        onClick={(event) => {
          if ((event.target as HTMLElement).closest(".dropdown-item")) setOpen(false);
        }}
      >
        {shown ? children : null}
      </div>
    </div>
  );
}

/** The menu's items, in order. */
const itemsOf = (root: HTMLElement | null) => [...(root?.querySelectorAll<HTMLElement>(".dropdown-menu .dropdown-item") ?? [])];

export function MenuDivider() {
  return <hr className="dropdown-divider" />;
}
