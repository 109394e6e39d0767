<?xml version="1.0" encoding="UTF-8"?>
<!--
  feed.xsl: OUT/feed.xml, RSS 2.0 with one item per run and one per
  change the history found (src/analyse/history.h).  The input is a
  <feed> document built by src/pages/report.c; the author (given with
  author, kept in OUT/site.conf) is each item's dc:creator, RSS's own
  author element wanting an e-mail address; each item's <content> is the HTML
  body of the run's report as text, which the serializer escapes (so the
  feed never needs a CDATA section).
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:atom="http://www.w3.org/2005/Atom"
                xmlns:content="http://purl.org/rss/1.0/modules/content/"
                xmlns:dc="http://purl.org/dc/elements/1.1/">
  <xsl:output method="xml" encoding="UTF-8" indent="yes"/>

  <xsl:template match="/feed">
    <rss version="2.0">
      <channel>
        <title><xsl:value-of select="channel/@title"/></title>
        <link><xsl:value-of select="channel/@link"/></link>
        <description><xsl:value-of select="channel/@description"/></description>
        <language>en</language>
        <generator><xsl:value-of select="channel/@generator"/></generator>
        <lastBuildDate><xsl:value-of select="channel/@last-build"/></lastBuildDate>
        <atom:link href="{channel/@self}" rel="self" type="application/rss+xml"/>
        <xsl:for-each select="item">
          <item>
            <title><xsl:value-of select="@title"/></title>
            <link><xsl:value-of select="@link"/></link>
            <guid isPermaLink="{@permalink}"><xsl:value-of select="@guid"/></guid>
            <pubDate><xsl:value-of select="@pubdate"/></pubDate>
            <xsl:if test="string(../channel/@author)">
              <dc:creator><xsl:value-of select="../channel/@author"/></dc:creator>
            </xsl:if>
            <description><xsl:value-of select="description"/></description>
            <xsl:if test="content">
              <content:encoded><xsl:value-of select="content"/></content:encoded>
            </xsl:if>
          </item>
        </xsl:for-each>
      </channel>
    </rss>
  </xsl:template>
</xsl:stylesheet>
