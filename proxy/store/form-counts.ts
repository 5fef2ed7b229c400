/** The channel cap both adapters apply to form step counts (FormCountStore.addFormCounts). */
import { CHANNEL_DIRECT, CHANNEL_OTHER } from "../../contract/form-steps";
import type { FormStepCount } from "./types";

/**
 * The counts with each channel new to its campaign's hour past `cap` channels turned into
 * `other` (`direct` and `other` never count against the cap), then merged by their key.
 * `known(campaign, hour)` reads the channels the hour already has; it is asked once per hour.
 */
export function cappedChannels(
  counts: readonly FormStepCount[],
  cap: number,
  known: (campaign: string, hour: number) => string[],
): FormStepCount[] {
  const channelsOf = new Map<string, Set<string>>();
  const merged = new Map<string, FormStepCount>();
  for (const count of counts) {
    const hourKey = `${count.campaign}\n${count.hour}`;
    let channels = channelsOf.get(hourKey);
    if (!channels) {
      channels = new Set(
        known(count.campaign, count.hour).filter((c) => c !== CHANNEL_DIRECT && c !== CHANNEL_OTHER),
      );
      channelsOf.set(hourKey, channels);
    }
    let channel = count.channel;
    if (channel !== CHANNEL_DIRECT && channel !== CHANNEL_OTHER && !channels.has(channel)) {
      if (channels.size >= cap) channel = CHANNEL_OTHER;
      else channels.add(channel);
    }
    const key = [count.campaign, count.hour, count.step, count.reason, channel, count.device].join("\n");
    const before = merged.get(key);
    if (before) before.count += count.count;
    else merged.set(key, { ...count, channel });
  }
  return [...merged.values()];
}
