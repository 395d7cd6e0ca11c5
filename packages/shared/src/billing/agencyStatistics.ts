/** What `GET /api/agency/:agencyId/statistics` answers (docs/api.md, "Agency area"): the server builds it, the statistics screen draws it. */

export interface MonthRevenue {
  month: string;
  /** Issued and paid bills: before tax, tax, with tax. Drafts are not revenue yet. */
  subtotal: number;
  consumptionTax: number;
  total: number;
  /** Of the total, what is paid. */
  paid: number;
  /** Devices held by a partner on at least one day of the month (from the borrows). */
  devicesOut: number;
}

export interface AgencyStatistics {
  devices: { total: number; stock: number; lent: number; inUse: number; repair: number; retired: number; online: number; atPartners: number };
  roomsMonitored: number;
  rooms: number;
  partners: { total: number; active: number };
  bills: { draft: number; issued: number; paid: number; unpaidTotal: number };
  months: MonthRevenue[];
  byPartner: { partnerId: string; name: string; devices: number; rooms: number }[];
}
