import type { StaffContext } from "@app/contract";
import { createContext, type ReactNode, useContext } from "react";

const Staff = createContext<StaffContext | null>(null);

export function StaffProvider({ staff, children }: { staff: StaffContext; children: ReactNode }) {
  return <Staff.Provider value={staff}>{children}</Staff.Provider>;
}

/** The logged-in staff member (inside the staff layout, which renders its pages only with one). */
export function useStaff(): StaffContext {
  const staff = useContext(Staff);
  if (!staff) throw new Error("useStaff() outside the staff layout");
  return staff;
}
