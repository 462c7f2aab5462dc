import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { SelectField, TextField } from '../ui/field.js';
import { CHANNEL_LABELS, CHANNELS, RANGE_LABELS, type Channel, type DateFilters, type Range } from './analytics-query.js';

// The date / assistant / channel filters shared by the analytics and conversations pages. Each
// change goes straight to the URL (the page reloads from it), so nothing needs an "apply".

export function DateFilterFields<F extends DateFilters>({
  value,
  onChange,
  ranges,
  assistants,
  children,
}: {
  children?: ComponentChildren;
  value: F;
  onChange: (next: F) => void;
  ranges: readonly Range[];
  assistants: ReadonlyArray<{ id: string; name: string }>;
}) {
  const dateOnly = (v: string) => (v.length > 10 ? v.slice(0, 10) : v);
  const bucket = value.range === 'custom' && (value.from.includes('T') || value.to.includes('T'));
  return (
    <>
      <div class="row">
        <SelectField
          label="Date range"
          value={value.range}
          options={ranges.map((r) => ({ value: r, label: RANGE_LABELS[r] }))}
          onValue={(range) =>
            onChange({ ...value, range, from: range === 'custom' ? value.from : '', to: range === 'custom' ? value.to : '' })
          }
        />
        {value.range === 'custom' && (
          <>
            <TextField
              label="From"
              type="date"
              value={dateOnly(value.from)}
              max={dateOnly(value.to) || undefined}
              onValue={(from) => onChange({ ...value, from })}
            />
            <TextField
              label="To"
              type="date"
              value={dateOnly(value.to)}
              min={dateOnly(value.from) || undefined}
              onValue={(to) => onChange({ ...value, to })}
            />
          </>
        )}
        <SelectField
          label="Assistant"
          value={value.assistantId}
          options={[{ value: '', label: 'All assistants' }, ...assistants.map((a) => ({ value: a.id, label: a.name }))]}
          onValue={(assistantId) => onChange({ ...value, assistantId })}
        />
        {children}
      </div>
      {bucket && (
        <p class="notice" role="status">
          <span>
            Showing {new Date(value.from).toLocaleString()} – {new Date(value.to).toLocaleString()}
          </span>
        </p>
      )}
      <ChannelPicker value={value.channels} onChange={(channels) => onChange({ ...value, channels })} />
    </>
  );
}

/** A multi-select as a row of checkboxes in a fieldset (keyboard and screen-reader friendly). */
export function ChannelPicker({ value, onChange }: { value: readonly Channel[]; onChange: (v: Channel[]) => void }) {
  const id = useId();
  return (
    <fieldset class="channel-picker" aria-describedby={`${id}-hint`}>
      <legend>Channels</legend>
      {CHANNELS.map((c) => (
        <label key={c} class="channel-option">
          <input
            type="checkbox"
            checked={value.includes(c)}
            onChange={(e) => {
              const next = e.currentTarget.checked ? CHANNELS.filter((x) => x === c || value.includes(x)) : value.filter((x) => x !== c);
              // At least one channel: an empty choice would mean "nothing", which is never what anyone wants.
              if (next.length) onChange(next);
              else e.currentTarget.checked = true;
            }}
          />
          {CHANNEL_LABELS[c]}
        </label>
      ))}
      <p class="hint" id={`${id}-hint`}>
        The playground is your team testing; it is left out unless you tick it.
      </p>
    </fieldset>
  );
}
