"use client";
// A live feed for react-query: an EventSource on a Server-Sent Events route invalidates the queries under `key`
// on each of `events`, so a change shows up without a reload. Answers whether the stream is up; while it is
// not, callers poll instead, and a reconnect refetches in case something happened meanwhile.
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useEffect, useState } from "react";

export function useLiveQueryEvents(url: string | null, events: readonly string[], key: QueryKey): boolean {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(true);
  // The arrays arrive new on every render; their contents decide when to reconnect.
  const eventList = events.join(",");
  const keyText = JSON.stringify(key);
  useEffect(() => {
    if (url === null || typeof EventSource === "undefined") {
      setLive(false);
      return;
    }
    let wasDown = false;
    const source = new EventSource(url);
    const queryKey = JSON.parse(keyText) as QueryKey;
    // A fetch in flight began before this change: an invalidation would join it when the query has no data yet
    // (a first load), and the change would be lost. Cancel what is in flight, then fetch anew.
    const refresh = () => void queryClient.cancelQueries({ queryKey }).then(() => queryClient.invalidateQueries({ queryKey }));
    const names = eventList.split(",");
    for (const name of names) source.addEventListener(name, refresh);
    source.onopen = () => {
      setLive(true);
      if (wasDown) refresh();
      wasDown = false;
    };
    source.onerror = () => {
      wasDown = true;
      setLive(false);
    };
    return () => {
      for (const name of names) source.removeEventListener(name, refresh);
      source.close();
    };
  }, [url, eventList, keyText, queryClient]);
  return live;
}
