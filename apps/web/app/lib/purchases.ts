import { useRootData } from "./root-data";

/**
 * Whether this site can take a purchase (settings.purchases_available): false on a site without a
 * payment provider (decision 030), where no discount is advertised and no button leads to a checkout
 * that would only answer payments_unavailable. True where the settings are not loaded (the root error
 * boundary), as before the flag existed.
 */
export function usePurchasesAvailable(): boolean {
  return useRootData()?.settings.purchases_available ?? true;
}
