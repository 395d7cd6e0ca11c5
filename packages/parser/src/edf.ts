// EDF / EDF+ / BDF / BDF+ result types.

export interface EdfSignalHeader {
  label: string;
  transducer: string;
  physicalDimension: string;
  physicalMin: number;
  physicalMax: number;
  digitalMin: number;
  digitalMax: number;
  prefilter: string;
  samplesPerRecord: number;
  reserved: string;
  /** samplesPerRecord / recordDuration; 0 when the record duration is 0 (annotation-only files). */
  sampleRate: number;
  /** An EDF+/BDF+ "EDF Annotations" (or "BDF Annotations") signal: no samples, TALs instead. */
  isAnnotation: boolean;
}

export interface EdfStart {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export interface EdfHeader {
  format: 'EDF' | 'BDF';
  /** plain EDF/BDF, or EDF+/BDF+ continuous (EDF+C) or discontinuous (EDF+D). */
  variant: 'plain' | 'continuous' | 'discontinuous';
  /** The version field: "0" for EDF, "BIOSEMI" for BDF (whose first byte is 0xFF). */
  version: string;
  patient: string;
  recording: string;
  /** The start date field as written, dd.mm.yy. */
  startDate: string;
  /** The start time field as written, hh.mm.ss. */
  startTime: string;
  /** Start date and time; the year comes from the EDF+ "Startdate dd-MMM-yyyy" when given, else yy 85–99 → 19yy, 00–84 → 20yy. */
  start: EdfStart;
  /** The start as local date-time text (EDF has no time zone), e.g. 1989-04-24T16:13:00. */
  startDateTime: string;
  headerBytes: number;
  reserved: string;
  /** Data records in the file (resolved when the header says -1). */
  recordCount: number;
  /** The number of data records field as written (-1: unknown). */
  recordCountField: number;
  /** Seconds per data record (0 in annotation-only files). */
  recordDuration: number;
  signalCount: number;
  signals: EdfSignalHeader[];
  /** Bytes per data record. */
  recordSize: number;
  /** Bytes after the last whole data record (ignored). */
  trailingBytes: number;
}

/** One time-stamped annotation list (TAL) entry with its texts. */
export interface EdfAnnotation {
  /** Seconds after the file's start date/time. */
  onset: number;
  /** Seconds, or null when the TAL gives none. */
  duration: number | null;
  texts: string[];
  /** Data record the TAL was found in. */
  record: number;
  /** Index of the annotation signal it was found in. */
  signal: number;
}

export interface EdfFile {
  header: EdfHeader;
  /** Physical values per signal (null for annotation signals). */
  samples: (Float32Array | null)[];
  /** Digital values per signal, only with `{ raw: true }` (null for annotation signals). */
  digital?: (Int32Array | null)[];
  annotations: EdfAnnotation[];
  /** Start of each data record in seconds after the file start: from the time-keeping TAL in EDF+, else record × duration. */
  recordStartTimes: Float64Array;
}
